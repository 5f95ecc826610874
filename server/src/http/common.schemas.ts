import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { StringEnum } from '../lib/typebox';

// Shapes every area shares. The client reads these exact fields (spec §3, §7, §8).

export { StringEnum };

export const Id = Type.String({ description: 'A UUID', minLength: 1, maxLength: 64 });

export const Modal = Type.Object({
  modal_id: Type.String(),
  level: StringEnum(['success', 'warning', 'error', 'info']),
  content: Type.String(),
  buttons: Type.Array(Type.String()),
});
export type Modal = Static<typeof Modal>;

/** Optional notices a success body may carry; the client shows them (spec §7). */
export const Notices = {
  message: Type.Optional(Type.String()),
  warnings: Type.Optional(Type.Array(Type.String())),
  modal: Type.Optional(Modal),
};

export const MessageOut = Type.Object({ ...Notices });
export type MessageOut = Static<typeof MessageOut>;

export const ErrorOut = Type.Object({ detail: Type.String(), modal: Type.Optional(Modal) }, { $id: 'ErrorOut' });
export type ErrorOut = Static<typeof ErrorOut>;

export const ValidationErrorOut = Type.Object(
  {
    errors: Type.Array(
      Type.Object({
        msg: Type.String(),
        /** Where, for code: the request part, then the field as the API names it, e.g. ["body", "invitation_code"]. */
        loc: Type.Array(Type.Union([Type.String(), Type.Number()])),
        /** The field as the user sees it, in their language, when the client cannot know it (a step's param, e.g. “File”). */
        label: Type.Optional(Type.String()),
      }),
    ),
  },
  { $id: 'ValidationErrorOut' },
);
export type ValidationErrorOut = Static<typeof ValidationErrorOut>;

/** The furthest page anyone may ask for: beyond it `(page - 1) * page_size` stops being a sane offset. */
export const MAX_PAGE = 10_000;

/**
 * `page` and `page_size`, declared once for every list of the API (query or body): bounded
 * integers, so `1e309`, `99999999999999999999`, `-1` or `1.5` answer 422 at the door instead of
 * reaching SQL as Infinity. Each list picks its default size and its largest.
 */
export const pageFields = ({ size = 50, maxSize = 200 }: { size?: number; maxSize?: number } = {}) => ({
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
  page_size: Type.Integer({ minimum: 1, maximum: maxSize, default: size }),
});

export const PageQuery = Type.Object(pageFields());
export type PageQuery = Static<typeof PageQuery>;

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer(),
    page_size: Type.Integer(),
  });
export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}
