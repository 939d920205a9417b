#!/usr/bin/env bash
# The fleet keys without mpirun: in a build without MPI, ranks and hosts are
# refused with a message that says so (exit 2, --dry-run too); with MPI,
# gemmhost alone is a job of one rank, and a section placed past it is an
# error naming the section's file:line. devices = local_rank is device 0.
# Usage: test_fleet_config.sh GEMMHOST SOURCE_DIR PYTHON WITH_MPI
set -u
gemmhost=$(realpath "$1") src=$2 with_mpi=$4
. "$src/tests/expect.sh"
unset GEMMHOST_PLUGIN_PATH OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_RANK

small_run 8 "output = $work/r" "[backend c]" "plugin = cpu" "kernels = naive" "devices = local_rank" >"$work/local.ini"
out=$("$gemmhost" --config "$work/local.ini" --dry-run 2>&1)
expect_status "devices = local_rank alone: device 0" $? 0
expect_in "the plan runs cpu's device 0" "$out" "cpu"

for key in "ranks = 0" "hosts = *"; do
  small_run 8 "[backend c]" "plugin = cpu" "kernels = naive" "$key" >"$work/placed.ini"
  out=$("$gemmhost" --config "$work/placed.ini" --dry-run 2>&1)
  status=$?
  if [ "$with_mpi" = ON ] || [ "$with_mpi" = 1 ] || [ "$with_mpi" = TRUE ]; then
    expect_status "$key alone (a job of one rank)" $status 0
  else
    expect_status "$key refused without MPI" $status 2
    expect_in "$key: the message says why" "$out" "gemmhost was built without MPI"
    expect_in "$key: and where" "$out" "placed.ini:"
  fi
done

if [ "$with_mpi" = ON ] || [ "$with_mpi" = 1 ] || [ "$with_mpi" = TRUE ]; then
  small_run 8 "[backend c]" "plugin = cpu" "kernels = naive" "ranks = 0, 2-5" >"$work/past.ini"
  out=$("$gemmhost" --config "$work/past.ini" --dry-run 2>&1)
  expect_status "ranks past a job of one" $? 2
  expect_in "names the section, file:line and the job" "$out" \
    "past.ini:10: [backend c] ranks = 2-5: no such rank: the job has 1 rank"
  small_run 8 "[backend c]" "plugin = cpu" "kernels = naive" "ranks = 3-1" >"$work/bad.ini"
  out=$("$gemmhost" --config "$work/bad.ini" --dry-run 2>&1)
  expect_status "a range backwards" $? 2
  expect_in "says what a rank is" "$out" "is not a rank"
  small_run 8 "[backend c]" "plugin = cpu" "kernels = naive" "hosts = no-such-node*" >"$work/host.ini"
  out=$("$gemmhost" --config "$work/host.ini" --dry-run 2>&1)
  expect_status "a host pattern that matches no rank" $? 2
  expect_in "names the pattern" "$out" "hosts = no-such-node* matches no rank's host"
fi
finish
