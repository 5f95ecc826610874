import type { Db } from '../../db/database';
import { DatasetsRepository } from './datasets.repository';

/** The datasets area's answers for other areas (a step's params, a clone), by owner. */
export class DatasetLookupsService {
  private readonly datasets: DatasetsRepository;

  constructor(db: Db) {
    this.datasets = new DatasetsRepository(db);
  }

  /** Which of these ids are datasets of this owner. */
  ownedIds(ownerId: string, ids: string[]): Promise<Set<string>> {
    return this.datasets.ownedIds(ownerId, ids);
  }
}
