# Sourced on a device machine: the OpenMPI runtime packed by pack-openmpi.sh in DIR ($1).
# usage: source perf/bench/device/openmpi-env.sh DIR
p=$(cd "$1" && pwd)
export OPAL_PREFIX=$p/usr PATH=$p/usr/bin:$PATH
export LD_LIBRARY_PATH=$p/usr/lib/x86_64-linux-gnu/openmpi/lib:$p/usr/lib/x86_64-linux-gnu/pmix2/lib:$p/libs:${LD_LIBRARY_PATH:-}
export PMIX_MCA_mca_base_component_path=$p/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm_rsh_agent=false  # one host: no ssh
