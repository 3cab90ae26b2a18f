/* fuzz_extract_py.c - libFuzzer target for the Python source scanner
 * (Library objects, define pairs, custom_op type hints): any bytes scan
 * without a crash, a leak or a position outside the input (see
 * extract_check.h). */
#include "extract_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_scan(data, size, TA_LANG_PYTHON);
    return 0;
}
