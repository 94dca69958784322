#include "tests/reference/support.hpp"
