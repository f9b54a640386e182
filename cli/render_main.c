/* mmtree-render: 'mmtree render' runs this program (see main.c). */
#include "cli.h"

int main(int argc, char **argv)
{
    return cmd_render(argc, argv);
}
