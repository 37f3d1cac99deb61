$ python -m ledger import data/2026-11.csv
