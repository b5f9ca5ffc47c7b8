#include <linux/io.h>

int core_read(void)
{
	/* Defined once per architecture: the build chooses, so no edge. */
	return io_read(1);
}
