#include <linux/feature.h>

int user(void)
{
	/* The build's configuration picks the prototype or the stub: no edge. */
	feature_on();
	return feature_level();
}
