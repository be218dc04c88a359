// zeta
