$ ./scripts/deploy.sh web1
