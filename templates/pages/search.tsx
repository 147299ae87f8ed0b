import type { SearchData, TemplateProps } from '../../src/shared/types.js';
import { SearchPage } from '../components/SearchPage.js';

export default function SearchTemplate(props: TemplateProps<SearchData>) {
  return <SearchPage {...props} />;
}
