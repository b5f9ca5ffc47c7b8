#include <linux/dev_printk.h>

static int sensor_probe(struct device *dev)
{
	dev_dbg(dev, "probing\n");
	dev_info(dev, "sensor at %d\n", 0x48);
	dev_warn(dev, "no definition in sight\n");
	return 0;
}

int sensor_init(struct device *dev)
{
	if (!dev) {
		dev_err(dev, "no device\n");
		return -19;
	}
	return sensor_probe(dev);
}
