#include <criterion/criterion.h>
Test(chart, placeholder) { cr_assert(1); }
