// Generic arithmetic over the numeric tower, with fixnum fast paths.
// (Placeholder: the numbers work replaces it.)
export {};
