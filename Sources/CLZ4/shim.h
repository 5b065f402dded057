// The system liblz4 as a Swift module. Its API has no macros or variadic functions Swift cannot
// call (use LZ4_compressBound(), not the LZ4_COMPRESSBOUND macro), so the shim only includes it.
#include <lz4.h>
