export default 'stub';
