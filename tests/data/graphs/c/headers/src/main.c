#include <stdio.h>
#include <util.h>

static int helper(int x)
{
	return x;
}

int main(void)
{
	int y = util_twice(3);
	y = UTIL_SQUARE(y);
	printf("%d\n", util_add(1, 2));
	/* util_inc is declared nowhere main.c can see: no edge. */
	return helper(y) + util_inc(y);
}
