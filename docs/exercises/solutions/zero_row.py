# exercise: zero_row
# x[1] is a view: writing it writes x.
def answer(x):
    x[1].fill_(0)
