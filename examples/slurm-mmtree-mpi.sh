#!/bin/sh
# A Slurm job for an exact optimum on many nodes: one MPI rank a node, its
# threads on the node's cores (they share one table of solved sets), rank
# 0 keeping the checkpoint.  Submit it again after a time-out or a
# failure: it resumes from the checkpoint, with any number of nodes.
#
#   sbatch examples/slurm-mmtree-mpi.sh            # MM(5,7), the defaults
#   sbatch --nodes=16 --export=ALL,P=6,C=5 examples/slurm-mmtree-mpi.sh
#
#SBATCH --job-name=mmtree-mpi
#SBATCH --nodes=8
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=32
#SBATCH --mem=0
#SBATCH --time=2-00:00:00
#SBATCH --output=mmtree-%j.log

P=${P:-5}
C=${C:-7}
RULE=${RULE:-optimal}
NAME=mm$P$C-$RULE
# The job's own limit, ten minutes before Slurm's: the whole job stops
# cleanly, writes the best tree it has and its proven lower bound (exit
# 3), and saves the checkpoint, so that nothing is lost to the kill.
LIMIT=${LIMIT:-$((2 * 86400 - 900))}

# srun starts the ranks when Open MPI was built with Slurm support (as
# Debian's is); else: mpirun --map-by ppr:1:node:pe=$SLURM_CPUS_PER_TASK
srun --cpu-bind=none mmtree-mpi -p "$P" -c "$C" --rule "$RULE" \
    -j "$SLURM_CPUS_PER_TASK" --time-limit "$LIMIT" \
    --checkpoint "$NAME.ckpt" --checkpoint-every 1800 \
    -o "$NAME.mmt"
status=$?
case $status in
0) echo "$NAME: proven optimal, the tree in $NAME.mmt" ;;
3) echo "$NAME: stopped before its proof; sbatch this script again to go on" ;;
*) echo "$NAME: failed (exit $status)" ;;
esac
exit $status
