// Declarations only (include/FuzzDriver.h); libFuzzer itself comes from `-sanitize=fuzzer`.
#include "FuzzDriver.h"
