#include <asm/io.h>

int setup_arch(void)
{
	return arch_io_base();
}
