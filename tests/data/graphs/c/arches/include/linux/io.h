#ifndef LINUX_IO_H
#define LINUX_IO_H
#include <asm/io.h>

int io_read(int port);
#endif
