#ifndef UTIL_H
#define UTIL_H

/* Adds two numbers. */
int util_add(int a, int b);

/**
 * util_twice() - doubles through util_add.
 */
static inline int util_twice(int x)
{
	return util_add(x, x);
}

#define UTIL_SQUARE(x) \
	((x) * (x))

struct util_pair {
	int left;
	int right;
};

typedef struct {
	int count;
} util_counter;

#endif
