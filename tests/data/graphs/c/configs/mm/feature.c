#include <linux/feature.h>

void feature_on(void)
{
	feature_level();
}
