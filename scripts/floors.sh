# Sourced, not run: reads the floors of docs/architecture.md from their one
# list, cmake/floors.txt, into
#   floor_folders  every folder of the floors, lowest floor first;
#   floor_of       folder -> its floor's number;
#   floor_targets  folder -> its CMake target(s), space-separated.
# Expects the repository's root as the working directory.
floor_folders=()
declare -A floor_of=() floor_targets=()
while read -r floor folder targets; do
  case "$floor" in '' | '#'*) continue ;; esac
  floor_folders+=("$folder")
  floor_of[$folder]=$floor
  floor_targets[$folder]=$targets
done <cmake/floors.txt
