// Apart from exporter.ts so the schemas (read by the web app too) import no Node module.
export const EXPORT_FORMATS = ['csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
