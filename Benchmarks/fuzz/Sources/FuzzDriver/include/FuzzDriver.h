#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, `-sanitize=fuzzer`): parses libFuzzer's flags from argv and runs
/// `callback` on each input. The fuzz targets call it from their own entry point, because SwiftPM
/// links an executable's `main` to `<module>_main` and so libFuzzer's `main` is never used.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
