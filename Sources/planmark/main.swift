print("planmark")
