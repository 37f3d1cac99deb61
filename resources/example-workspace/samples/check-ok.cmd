$ ./scripts/check.sh
