#include <linux/io.h>

int io_read(int port)
{
	return port + arch_io_base();
}
