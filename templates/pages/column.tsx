// A column (`/{name}s-corner/`) lists its articles as a section page does.
import type { SectionData, TemplateProps } from 'ir-site/templates';
import SectionTemplate from './section.js';

export default function ColumnTemplate(props: TemplateProps<SectionData>) {
  return <SectionTemplate {...props} />;
}
