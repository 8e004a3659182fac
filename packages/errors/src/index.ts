export { isShadeboxError, ShadeboxError, type ShadeboxErrorOptions } from './shadebox-error.js';
