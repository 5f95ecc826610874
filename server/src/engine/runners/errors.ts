import { ValidationFailed, type Problem } from '../../lib/errors';
import type { MessageValues } from '../../i18n/messages';

/**
 * A step's params do not fit its inputs: a column that does not exist, one of the wrong type, an
 * expression that reads something it may not. Thrown by runners' `outputColumns`/`toSql` before any
 * SQL runs. Each problem's `loc` starts with the param's name (`["condition"]`,
 * `["aggregations", 1, "column"]`); the route prefixes where it read the params
 * (`err.at(['body', 'param_inputs'])`), the run engine records it as the step run's failure.
 * It is a ValidationFailed, so the API answers it 422 `{errors: [{msg, loc}]}`.
 */
export class StepParamsInvalid extends ValidationFailed {
  constructor(problems: Problem[]) {
    super(problems);
    this.name = 'StepParamsInvalid';
  }

  at(prefix: (string | number)[]): ValidationFailed {
    return new ValidationFailed(this.problems.map((p) => ({ ...p, loc: [...prefix, ...p.loc] })));
  }
}

export const paramProblem = (loc: (string | number)[], key: string, values?: MessageValues): StepParamsInvalid =>
  new StepParamsInvalid([{ key, loc, ...(values ? { values } : {}) }]);
