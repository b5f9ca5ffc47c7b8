#include "api.h"

int api_call(void)
{
	return 1;
}
