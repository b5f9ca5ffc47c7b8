#include <linux/dev_printk.h>

void _dev_err(const struct device *dev, const char *fmt, ...)
{
}
