/**
 * L2-regularised logistic regression fitted by Newton's method (iteratively reweighted least squares) over ml-matrix,
 * with class weights. Small and deterministic, so that a test can fit again and compare with the committed weights.
 * Our own because ml-logistic-regression (mljs) takes only a step count and a learning rate: gradient descent with
 * no penalty and no class weights, whose result depends on when it is stopped.
 * Only the fit lives here; the server only evaluates.
 */
import { Matrix, solve } from 'ml-matrix';

export type Sample = { features: number[]; label: 0 | 1 };
/** Standardised inputs (`(x - mean) / scale`), then `intercept + sum(weight * input)` through the logistic. */
export type LogisticModel = { mean: number[]; scale: number[]; weights: number[]; intercept: number };

const logistic = (value: number) => 1 / (1 + Math.exp(-value));

export function predict(model: LogisticModel, features: readonly number[]): number {
  let sum = model.intercept;
  features.forEach((value, index) => {
    sum += (model.weights[index] ?? 0) * ((value - (model.mean[index] ?? 0)) / (model.scale[index] ?? 1));
  });
  return logistic(sum);
}

/**
 * Fits `label` from `features`. Each class weighs as much in total as the other (a question has many more wrong
 * candidate sections than right ones); `penalty` is the L2 weight on the standardised coefficients, not the intercept.
 */
export function fitLogistic(samples: readonly Sample[], penalty: number): LogisticModel {
  const width = samples[0]?.features.length ?? 0;
  const column = (index: number) => samples.map((sample) => sample.features[index] ?? 0);
  const mean = Array.from({ length: width }, (_, index) => average(column(index)));
  const scale = Array.from({ length: width }, (_, index) => {
    const values = column(index);
    const deviation = Math.sqrt(average(values.map((value) => (value - (mean[index] ?? 0)) ** 2)));
    return deviation > 1e-9 ? deviation : 1;
  });
  const positives = samples.filter((sample) => sample.label === 1).length;
  const classWeight = (label: 0 | 1) =>
    samples.length / (2 * Math.max(1, label === 1 ? positives : samples.length - positives));
  const rows = samples.map((sample) => [
    1,
    ...sample.features.map((value, index) => (value - (mean[index] ?? 0)) / (scale[index] ?? 1)),
  ]);
  const inputs = new Matrix(rows);
  const transposed = inputs.transpose();
  let coefficients = Matrix.zeros(width + 1, 1);
  for (let round = 0; round < 50; round += 1) {
    const linear = inputs.mmul(coefficients);
    const gradient = Matrix.zeros(width + 1, 1);
    const curvature = Matrix.zeros(width + 1, width + 1);
    const weighted = new Matrix(samples.length, width + 1);
    const residual = new Matrix(samples.length, 1);
    samples.forEach((sample, row) => {
      const probability = logistic(linear.get(row, 0));
      const weight = classWeight(sample.label);
      residual.set(row, 0, weight * (sample.label - probability));
      const spread = weight * probability * (1 - probability);
      for (let index = 0; index <= width; index += 1) weighted.set(row, index, spread * inputs.get(row, index));
    });
    gradient.add(transposed.mmul(residual));
    curvature.add(transposed.mmul(weighted));
    for (let index = 1; index <= width; index += 1) {
      gradient.set(index, 0, gradient.get(index, 0) - penalty * coefficients.get(index, 0));
      curvature.set(index, index, curvature.get(index, index) + penalty);
    }
    const step = solve(curvature, gradient);
    coefficients = coefficients.add(step);
    if (step.norm() < 1e-10) break;
  }
  const values = coefficients.to1DArray();
  return { mean, scale, weights: values.slice(1), intercept: values[0] ?? 0 };
}

function average(values: readonly number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}
