import type { Db } from '../../db/database';
import { effectiveInfos, type EffectiveInfo } from './catalogue';
import { StepInfosRepository } from './step-infos.repository';

/** The catalogue as people see it (admins' overrides applied), for other areas. */
export class StepOverridesService {
  private readonly repo: StepInfosRepository;

  constructor(db: Db) {
    this.repo = new StepInfosRepository(db);
  }

  overrides() {
    return this.repo.overrides();
  }

  /** Every step type with its overrides applied. */
  effectiveInfos(): Promise<EffectiveInfo[]> {
    return effectiveInfos(this.repo);
  }
}
