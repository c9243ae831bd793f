for n in [3, 4]:
    x = torch.arange(n * n).view(n, n)
    d = answer(x)
    expect(d.shape == (n,), f"the diagonal of a {n}x{n} matrix has {n} elements")
    expect(d.tolist() == [row[i] for i, row in enumerate(x.tolist())], "the values are x[i][i]")
    expect(shares(d, x), "the answer must be a view of x, not a copy")
    d[1] = 100
    expect(x[1][1].item() == 100, "writing the view writes x")
