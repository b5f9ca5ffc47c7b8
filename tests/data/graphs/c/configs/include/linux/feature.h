#ifndef LINUX_FEATURE_H
#define LINUX_FEATURE_H

#ifdef CONFIG_FEATURE
void feature_on(void);
#else
static inline void feature_on(void)
{
}
#endif

static inline int feature_level(void)
{
	return 1;
}

#endif
