# exercise: every_other
def answer(x):
    return x[::2]
