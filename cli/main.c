/* conebench — command-line entry point. */
#include "commands.h"

int main(int argc, char **argv) { return cb_cli_main(argc, argv); }
