/** A list of 32-bit integers that grows by doubling: millions of postings without a JavaScript number array's cost. */
export class GrowableInt32Array {
  private values = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const larger = new Int32Array(this.values.length * 2);
      larger.set(this.values);
      this.values = larger;
    }
    this.values[this.length] = value;
    this.length += 1;
  }

  get(position: number): number {
    return this.values[position] ?? 0;
  }

  set(position: number, value: number): void {
    this.values[position] = value;
  }

  /** The values as an array of their own length. */
  toInt32Array(): Int32Array {
    return this.values.slice(0, this.length);
  }
}
