// SPDX-License-Identifier: MIT
#include "unit.h"
int main(void)
{
	return 0;
}
