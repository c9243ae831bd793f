# exercise: last_column
def answer(x):
    return x[:, -1]
