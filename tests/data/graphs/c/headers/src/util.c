#include "util.h"

int util_add(int a, int b)
{
	return a + b;
}

/* Same name as main.c's helper: each file calls its own. */
static int helper(int x)
{
	return x + 1;
}

int util_inc(int x)
{
	return helper(x);
}
