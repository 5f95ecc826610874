import { Badge } from '@chakra-ui/react';

/** A workflow's tags as the gallery shows them: one pill each, in the brand colour. Renders the
 *  badges alone, so the caller places them in its own row (a wrapping stack, a line of counts). */
export function TagBadges({ tags }: { tags: string[] }) {
  return tags.map((tag) => (
    <Badge key={tag} variant="subtle" colorPalette="brand" rounded="full" fontWeight="normal">
      {tag}
    </Badge>
  ));
}
