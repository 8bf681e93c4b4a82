// LD_PRELOAD shim (issue 53 diagnosis): sets the CUDA per-thread stack limit before kcp starts.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
__attribute__((constructor)) static void kcp_shim() {
  const char* s = std::getenv("KCP_STACK");
  if (s == nullptr) return;
  const size_t v = std::strtoul(s, nullptr, 10);
  size_t before = 0, after = 0;
  cudaDeviceGetLimit(&before, cudaLimitStackSize);
  const cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, v);
  cudaDeviceGetLimit(&after, cudaLimitStackSize);
  std::fprintf(stderr, "shim: stack limit %zu -> %zu (asked %zu, %s)\n", before, after, v, cudaGetErrorString(e));
}
