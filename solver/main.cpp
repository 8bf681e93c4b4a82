#include "solver/run.hpp"

#include <iostream>

int main(int argc, char** argv) { return kcp::run_cli(argc, argv, std::cout, std::cerr); }
