// 128-bit integers for exact host-side arithmetic (compile-time folding, the checker). A GNU
// extension in both g++ and nvcc's front end; __extension__ keeps -Wpedantic quiet about it.
#pragma once

namespace kcp {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

}  // namespace kcp
