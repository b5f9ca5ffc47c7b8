#include <api.h>

int main(void)
{
	return api_call();
}
