#ifndef ASM_IO_H
#define ASM_IO_H
#define IO_BASE_arm 0x100
static inline int arch_io_base(void)
{
	return IO_BASE_arm;
}
#endif
