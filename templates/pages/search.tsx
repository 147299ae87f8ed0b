import type { SearchData, TemplateProps } from 'ir-site/templates';
import { SearchPage } from '../components/SearchPage.js';

export default function SearchTemplate(props: TemplateProps<SearchData>) {
  return <SearchPage {...props} />;
}
