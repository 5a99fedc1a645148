// eqv?, eq? and equal? (terminating on cyclic data).
// (Placeholder: the data-primitives work replaces it.)
export {};
