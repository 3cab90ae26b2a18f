/* tensoralias/bundled.h - where tensoralias's own files are: the data it
 * ships (the PyTorch yaml and samples it defaults to, torch's operator list,
 * the libtorch bridge's build kit) and its kernel libraries. One place
 * decides, for the command, the verify session and any program: given the
 * data folder a caller names (the command: $TENSORALIAS_DATADIR), else
 * where this copy of the library is, else the prefix it was built for.
 */
#ifndef TENSORALIAS_BUNDLED_H
#define TENSORALIAS_BUNDLED_H

#include <stddef.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bundled data (native_functions.yaml, tags.yaml, opinfo-samples.json,
 * registered-operators.txt, torch-bridge/torch-config.sh) is in a data
 * folder: PREFIX/share/tensoralias installed, BUILD/share/tensoralias in a
 * build tree. Finds `name` in data_dir (when not NULL), else beside the file
 * that holds this library (libtensoralias.so, or a program linked with
 * libtensoralias.a) in share/tensoralias or ../share/tensoralias, else in
 * the folder compiled in (PREFIX/share/tensoralias). Writes the path into
 * buf; TA_ERR_NOTFOUND when none is readable, TA_ERR_INVALID when it does
 * not fit in cap bytes. */
TA_API ta_status ta_bundled_file(const char *data_dir, const char *name, char *buf, size_t cap);

/* A library bundled with tensoralias (libtensoralias_refkernels.so,
 * libtensoralias_cuda.so, libtensoralias_torch.so, torch/KEY/...): when
 * data_dir is given, in its prefix's lib (data_dir/../../lib) or its build
 * tree (data_dir/../..); then beside the file that holds this library, or
 * in ../lib from there; then in the compiled-in prefix's lib. Returns as
 * ta_bundled_file does. */
TA_API ta_status ta_bundled_library(const char *data_dir, const char *name, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
