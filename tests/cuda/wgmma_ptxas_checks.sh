# Sourced by the wgmma ptxas tests after tests/expect.sh: the verdicts on one
# ptxas run for sm_90a with -v, -warn-spills and -Werror.
# expect_ptxas_clean NAME STATUS OUTPUT: it assembled (no spills: -Werror),
# all four kernels reported their registers, and ptxas serialised no wgmma
# (C7514, C7518...: info lines that -Werror lets through; see
# test_wgmma_ptxas.sh).
expect_ptxas_clean() {
  local name=$1 status=$2 out=$3 serialized
  expect_status "$name: assembles for sm_90a without spills" "$status" 0
  [ "$status" = 0 ] || echo "$out"
  grep -E "Compiling entry|Used [0-9]+ registers|spill stores" <<<"$out"
  expect_status "$name: four kernels report their registers" "$(grep -c 'Used [0-9]* registers' <<<"$out")" 4
  serialized=$(grep -iE "serializ" <<<"$out")
  expect_status "$name: no wgmma serialised by ptxas${serialized:+ ($serialized)}" \
    "$([ -z "$serialized" ] && echo 1 || echo 0)" 1
}
