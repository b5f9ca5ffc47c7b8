/* Device messages. tree-sitter cannot read the attribute macros (__printf(2, 3) __cold) before
 * the prototypes and stubs: its error recovery takes the #define lines below for plain tokens. */
#ifndef _DEVICE_PRINTK_H_
#define _DEVICE_PRINTK_H_

struct device;

#ifdef CONFIG_PRINTK

__printf(2, 3) __cold
void _dev_err(const struct device *dev, const char *fmt, ...);
__printf(2, 3) __cold
void _dev_info(const struct device *dev, const char *fmt, ...);

#else

static inline __printf(2, 3)
void _dev_err(const struct device *dev, const char *fmt, ...)
{}
static inline __printf(2, 3)
void _dev_info(const struct device *dev, const char *fmt, ...)
{}

#endif

#define dev_err(dev, fmt, ...) \
	_dev_err(dev, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) _dev_info(dev, fmt, ##__VA_ARGS__)

#if defined(DEBUG)
#define dev_dbg(dev, fmt, ...) _dev_info(dev, fmt, ##__VA_ARGS__)
#else
#define dev_dbg(dev, fmt, ...) do { } while (0)
#endif

/*
#define dev_warn(dev, fmt, ...) in a comment defines nothing
 */

#endif
